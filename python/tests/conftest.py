import os
import pathlib

import pytest

SOURCE = pathlib.Path(__file__).resolve().parents[2]


def shared_dir():
    env = os.environ.get("PLANLINT_SHARED_DIR")
    for d in ([env] if env else []) + [str(SOURCE.parent / "shared")]:
        if d and os.path.isdir(d):
            return pathlib.Path(d)
    return None


@pytest.fixture
def corpus():
    return SOURCE / "corpus"


@pytest.fixture
def shared():
    d = shared_dir()
    if d is None:
        if os.environ.get("CI") == "true":
            pytest.fail("../shared is absent under CI=true")
        pytest.skip("../shared is absent")
    return d


@pytest.fixture
def planlint_cli():
    exe = os.environ.get("PLANLINT_BINARY")
    if not exe or not os.path.exists(exe):
        pytest.skip("PLANLINT_BINARY not set (run through CTest: tests/python.sh)")
    return exe
