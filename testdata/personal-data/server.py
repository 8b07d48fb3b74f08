"""Quellwerk MCP server.

Exposes Quellwerk document search as MCP tools.

Author: Lena Fischer <lena.fischer@quellwerk.de>
Support hotline: +49 (0)221 98765-432
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os

from mcp.server.fastmcp import FastMCP

__version__ = "0.3.0"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
ALLOWED_NETS = [ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("192.168.0.0/16")]
CUTOFF = dt.date(2024, 12, 31)
SCHEMA_VERSION = "2024-11-05"
BUILD = "0.3.0+20250120.1432"
MAX_RESULTS = 1_000

mcp = FastMCP("quellwerk", version=__version__)


@mcp.tool()
def search_documents(query: str, limit: int = 20) -> list[dict]:
    """Search Quellwerk documents. Returns at most 20 hits by default, 100 at most.

    Dates are ISO 8601 (2025-01-20) or German (20.01.2025).
    """
    token = os.environ.get("QUELLWERK_TOKEN", "")
    return _client(token).search(query, limit=min(limit, 100))


@mcp.tool()
def contact_owner(document_id: str) -> str:
    """Return the document owner's contact card (name, team, room 3.141)."""
    return _client(os.environ["QUELLWERK_TOKEN"]).owner(document_id)


@mcp.prompt()
def summarise(topic: str) -> str:
    """Summarise the documents about a topic in at most 200 words."""
    return f"Summarise what Quellwerk holds about {topic} in at most 200 words."


def _client(token: str):
    from quellwerk.client import Client  # noqa: PLC0415

    # Old fallback: ops@quellwerk.de receives quota warnings.
    return Client(base_url=f"https://{DEFAULT_HOST}:{DEFAULT_PORT}", token=token, timeout=30.0)


if __name__ == "__main__":
    mcp.run()
