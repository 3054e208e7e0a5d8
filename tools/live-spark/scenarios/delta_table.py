"""A Delta Lake table (delta-spark from Maven Central; Spark 3.5 and 4.1: no Delta release supports Spark 4.3 yet) read with x = 42 (pushed, data skipping) and upper(name) = 'N42' (not sargable)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import main  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

SPARK_VERSIONS = ("3.5", "4.1")
PACKAGES = {"3.5": ["io.delta:delta-spark_2.12:3.3.2"], "4.1": ["io.delta:delta-spark_2.13:4.3.1"]}
SETUP_CONF = {"spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
              "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog"}
CONF = {}


def setup(spark, data):
    spark.range(200_000, numPartitions=8).select(
        F.col("id"), (F.col("id") % 500).alias("x"), F.concat(F.lit("n"), (F.col("id") % 1000).cast("string")).alias("name"),
        F.rand(1).alias("v")).write.format("delta").mode("overwrite").save(f"{data}/delta")


def query(spark, data):
    d = spark.read.format("delta").load(f"{data}/delta")
    return d.filter((F.col("x") == 42) & (F.upper("name") == "N42")).agg(F.count("*").alias("n"), F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
