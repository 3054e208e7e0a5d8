"""mapInPandas over a parquet scan: MapInPandas."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, events, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {}
def setup(spark, data):
    events(spark, f"{data}/events")


def query(spark, data):
    def keep(batches):
        for b in batches:
            yield b[b["x"] % 100 == 42][["id", "x"]]

    e = spark.read.parquet(f"{data}/events").select("id", "x")
    return e.mapInPandas(keep, "id long, x long").groupBy("x").count()


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
