#!/bin/sh
# Creates Temporal's two PostgreSQL databases when missing and brings their schemas to the server's version:
# `setup-schema -v 0.0` then `update-schema` works for a fresh database and for one an older server left behind.
# Run at every start by `npm run cluster` and the test services (tools/stack/temporalServer.ts, with the binary and
# schema files it built) and by the one-shot `temporal-schema` service of docker-compose.yml (temporalio/admin-tools).
#
# Connection: the SQL tool's own variables SQL_PLUGIN (postgres12), SQL_HOST, SQL_PORT, SQL_USER, SQL_PASSWORD.
set -eu

TOOL="${TEMPORAL_SQL_TOOL:-temporal-sql-tool}"
SCHEMA_DIR="${TEMPORAL_SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}"

setup() {
  database="$1"
  schema="$2"
  if ! output=$("$TOOL" --db "$database" create-database 2>&1); then
    case "$output" in
      *"already exists"*) ;;
      *)
        echo "$output" >&2
        exit 1
        ;;
    esac
  fi
  "$TOOL" --db "$database" setup-schema -v 0.0
  "$TOOL" --db "$database" update-schema -d "$SCHEMA_DIR/$schema/versioned"
}

setup "${TEMPORAL_DATABASE:-temporal}" temporal
setup "${TEMPORAL_VISIBILITY_DATABASE:-temporal_visibility}" visibility
