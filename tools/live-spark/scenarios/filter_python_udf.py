"""A filter through a Python UDF: it cannot be pushed (and is not a simple predicate); rows go to a Python worker."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, events, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {}
def setup(spark, data):
    events(spark, f"{data}/events")


def query(spark, data):
    is_hot = F.udf(lambda x: x is not None and x % 100 == 42, "boolean")
    e = spark.read.parquet(f"{data}/events")
    return e.filter(is_hot("x")).agg(F.count("*").alias("n"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
