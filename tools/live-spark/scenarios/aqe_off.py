"""A plain aggregation with spark.sql.adaptive.enabled=false: shuffles without AQE."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, events, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.adaptive.enabled": "false"}
def setup(spark, data):
    events(spark, f"{data}/events")


def query(spark, data):
    return spark.read.parquet(f"{data}/events").groupBy("code").agg(F.sum("v").alias("v")).agg(F.count("*").alias("n"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
