from mcp.server.fastmcp import FastMCP

mcp = FastMCP("almanac")


@mcp.tool()
def sunrise(city: str, date: str) -> str:
    """Returns the sunrise time for a city on a given date."""
    return city + " " + date


def main() -> None:
    mcp.run()
