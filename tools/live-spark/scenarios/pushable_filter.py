"""Near miss: x = 42 and name = 'n42' on parquet columns: both pushed into the scan."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, events, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {}
def setup(spark, data):
    events(spark, f"{data}/events")


def query(spark, data):
    e = spark.read.parquet(f"{data}/events")
    return e.filter((F.col("x") == 42) & (F.col("name") == "n42")).agg(F.count("*").alias("n"), F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
