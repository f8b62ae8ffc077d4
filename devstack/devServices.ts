/** PostgreSQL and Temporal as the API and the worker see them, whether this process started them or not. */
export interface DevServices {
  databaseUrl: string;
  temporalAddress: string;
  /** The Web UI of a Temporal dev server started here (null when headless or not ours). */
  temporalUiUrl: string | null;
  /** A directory made for this run only (throw-away services): the stack's DATA_DIR and where its workflow bundle goes. */
  dir?: string;
  /** Stops what was started here; a server given by address is left alone. */
  stop(): Promise<void>;
}
