# A game's play-by-play from the HTTP API as Arrow, into a polars DataFrame.
# Run: python3 examples/read_arrow.py [url]   (pip install polars)
import sys
import urllib.request

import polars as pl

url = sys.argv[1] if len(sys.argv) > 1 else (
    "http://localhost:8080/v1/ops/mens_summary?event_id=900007000&table=plays&format=arrow"
)
with urllib.request.urlopen(url) as response:
    plays = pl.read_ipc_stream(response.read())

scoring = plays.filter(pl.col("scoring_play"))
print(scoring.select("period_number", "clock_display_value", "away_score", "home_score", "text").tail(10))
print(f"{plays.height} plays, {scoring.height} scoring")
