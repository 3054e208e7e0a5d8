"""A table in an embedded Derby database (Spark's own derby jar) read over JDBC: x = 42 is pushed, upper(name) = 'N42' is not sargable."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {}
URL = "jdbc:derby:{data}/db;create=true"
OPTS = {"driver": "org.apache.derby.jdbc.EmbeddedDriver"}


def setup(spark, data):
    spark.range(20_000, numPartitions=1).select(F.col("id"), (F.col("id") % 500).alias("x"),
                                                F.concat(F.lit("n"), (F.col("id") % 1000).cast("string")).alias("name")) \
        .write.jdbc(URL.format(data=data), "EVENTS", mode="overwrite", properties=OPTS)


def query(spark, data):
    e = spark.read.jdbc(URL.format(data=data), "EVENTS", properties=OPTS)
    return e.filter((F.col("x") == 42) & (F.upper("name") == "N42")).agg(F.count("*").alias("n"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
