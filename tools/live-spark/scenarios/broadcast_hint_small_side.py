"""Near miss: a BROADCAST hint on a 200-row dimension: a right hint."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.autoBroadcastJoinThreshold": "-1"}
def setup(spark, data):
    fact(spark, f"{data}/fact", 1_000_000, 200)
    dim(spark, f"{data}/dim", 200)


def query(spark, data):
    f = spark.read.parquet(f"{data}/fact")
    d = spark.read.parquet(f"{data}/dim")
    return f.join(F.broadcast(d), "k").groupBy("grp").count()


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
