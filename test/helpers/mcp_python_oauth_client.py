"""The official Python MCP client (PyPI `mcp`) signing in with its own OAuth support, as a host without a key does.

Usage: python3 mcp_python_oauth_client.py <url> <member session token> <arguments as JSON>
The client meets the 401, discovers, registers (DCR), and sends the member to authorize; this script plays the member
with the API the consent page uses (approve), and returns the redirect's code, state and iss to the client, which checks
them and exchanges the code (PKCE). Prints one JSON line: the access token's prefix, the tools listed, each call's result.
"""

import asyncio
import json
import sys
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

    async def approve(authorization_url: str) -> None:
        async with httpx2.AsyncClient() as browser:
            consent = await browser.get(authorization_url)
            request_id = parse_qs(urlparse(consent.headers["location"]).query)["request"][0]
            decided = await browser.post(
                f"{base}/oauth/requests/{request_id}/decision",
                json={"decision": "approve"},
                headers={"Authorization": f"Bearer {session}"},
            )
            back = parse_qs(urlparse(decided.json()["redirect_to"]).query)
            landed.update({name: values[0] for name, values in back.items()})

    async def callback() -> AuthorizationCodeResult:
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
    async with create_mcp_http_client(auth=auth) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="auto") as client:
            tools = (await client.list_tools()).tools
            calls = {}
            for tool in tools:
                result = await client.call_tool(tool.name, arguments)
                text = result.content[0].text if result.content else None
                calls[tool.name] = {"isError": result.is_error, "text": text}
            report = {
                "protocolVersion": client.protocol_version,
                "tokenPrefix": storage.tokens.access_token[:6] if storage.tokens else None,
                "clientId": storage.client.client_id if storage.client else None,
                "tools": [tool.name for tool in tools],
                "calls": calls,
            }
            print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))
