"""A vectorised pandas UDF in a projection: ArrowEvalPython."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, events, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {}
def setup(spark, data):
    events(spark, f"{data}/events")


def query(spark, data):
    from pyspark.sql.functions import pandas_udf

    @pandas_udf("long")
    def bucket(x):
        return x // 100

    e = spark.read.parquet(f"{data}/events")
    return e.select(bucket("x").alias("b")).groupBy("b").count()


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
