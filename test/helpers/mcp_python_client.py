"""The official Python MCP client (PyPI `mcp`) as a host drives it: connect, list the tools, call every one shown.

Usage: python3 mcp_python_client.py <url> <api key> <mode: auto | legacy> <arguments as JSON>
Prints one JSON line: the negotiated protocol version, the tools listed, and each call's result.
"""

import asyncio
import json
import sys

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def main(url: str, key: str, mode: str, arguments: dict) -> None:
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            tools = (await client.list_tools()).tools
            calls = {}
            for tool in tools:
                result = await client.call_tool(tool.name, arguments)
                text = result.content[0].text if result.content else None
                calls[tool.name] = {"isError": result.is_error, "text": text}
            listed = [tool.name for tool in tools]
            print(json.dumps({"protocolVersion": client.protocol_version, "tools": listed, "calls": calls}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])))
