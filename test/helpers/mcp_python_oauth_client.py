"""The official Python MCP client (PyPI `mcp`) signing in with its own OAuth support, as a host without a key does.

Usage: python3 mcp_python_oauth_client.py <url> <member session token> <arguments as JSON>
The client meets the 401, discovers, registers (DCR), and sends the member to authorize; this script plays the member
with the API the consent page uses (approve), and returns the redirect's code, state and iss to the client, which checks
them and exchanges the code (PKCE). Then, as the test says on stdin (after printing `{"step": ...}`): a call after its access
token lapsed (refreshed, rotated), and a call after the host was disconnected (refused). Prints one JSON line last: the
access token's prefix, the tools listed, each call's result, and what the refresh and the revocation came to.
"""

import asyncio
import json
import sys
import time
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken


class MemoryStorage(TokenStorage):
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


async def main(url: str, session: str, arguments: dict) -> None:
    base = url.rsplit("/mcp-server", 1)[0]
    landed: dict[str, str] = {}
    # Once the host is disconnected the member declines to connect it again (a host asks anew after a refused refresh).
    member = {"decision": "approve", "asked": 0}

    async def approve(authorization_url: str) -> None:
        member["asked"] += 1
        async with httpx2.AsyncClient() as browser:
            consent = await browser.get(authorization_url)
            request_id = parse_qs(urlparse(consent.headers["location"]).query)["request"][0]
            decided = await browser.post(
                f"{base}/oauth/requests/{request_id}/decision",
                json={"decision": member["decision"]},
                headers={"Authorization": f"Bearer {session}"},
            )
            back = parse_qs(urlparse(decided.json()["redirect_to"]).query)
            landed.clear()
            landed.update({name: values[0] for name, values in back.items()})

    async def callback() -> AuthorizationCodeResult:
        if "code" not in landed:
            raise PermissionError(f"the member declined: {landed.get('error')}")
        return AuthorizationCodeResult(code=landed["code"], state=landed.get("state"), iss=landed.get("iss"))

    storage = MemoryStorage()
    metadata = OAuthClientMetadata(
        client_name="Python host",
        redirect_uris=["http://127.0.0.1:33420/callback"],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )
    auth = OAuthClientProvider(url, metadata, storage, redirect_handler=approve, callback_handler=callback)
    report: dict = {}
    try:
        async with create_mcp_http_client(auth=auth) as http:
            async with Client(streamable_http_client(url, http_client=http), mode="auto") as client:
                await exercise(client, auth, storage, member, arguments, report)
    except BaseException as error:  # a refused authorization ends the client's task group, whose exit raises it
        if "afterRevoke" not in report:
            raise
        report["afterRevoke"] = report["afterRevoke"] if report["afterRevoke"] != "pending" else type(error).__name__
    print(json.dumps(report))


async def exercise(client: Client, auth: OAuthClientProvider, storage: MemoryStorage, member: dict, arguments: dict, report: dict) -> None:
    """Lists and calls every tool, calls again once the access token lapsed, and once more after the disconnect."""
    tools = (await client.list_tools()).tools
    calls = {}
    for tool in tools:
        result = await client.call_tool(tool.name, arguments)
        text = result.content[0].text if result.content else None
        calls[tool.name] = {"isError": result.is_error, "text": text}
    first = storage.tokens
    report.update(
        {
            "protocolVersion": client.protocol_version,
            "tokenPrefix": first.access_token[:6] if first else None,
            "clientId": storage.client.client_id if storage.client else None,
            "tools": [tool.name for tool in tools],
            "calls": calls,
        }
    )
    # The access token's hour is over: the test expires it in the database, and the client's clock agrees (the
    # SDK refreshes a token it knows has lapsed; a 401 on one it thinks valid sends it through authorization anew).
    print(json.dumps({"step": "expire"}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    auth.context.token_expiry_time = time.time() - 1
    asked_before = member["asked"]
    again = await client.call_tool(tools[0].name, arguments)
    report["afterRefresh"] = {
        "isError": again.is_error,
        "reauthorized": member["asked"] > asked_before,
        "rotated": bool(storage.tokens and first and storage.tokens.refresh_token != first.refresh_token),
    }
    # The test disconnects the host in the dashboard's API, then says so: the grant is over, and the member declines
    # when the host asks to be connected again.
    print(json.dumps({"step": "revoke"}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    member["decision"] = "deny"
    asked = member["asked"]
    report["afterRevoke"] = "pending"
    try:
        await client.call_tool(tools[0].name, arguments)
        report["afterRevoke"] = "answered"
    except Exception as error:
        report["afterRevoke"] = type(error).__name__
    finally:
        report["askedAgain"] = member["asked"] > asked

if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))
