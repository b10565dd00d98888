import os
import pathlib

import pytest

CORPUS = pathlib.Path(os.environ.get("ETVIZ_CORPUS_DIR", pathlib.Path(__file__).resolve().parents[3] / "shared" / "corpus"))
BIN = os.environ.get("ETVIZ_BIN")


@pytest.fixture
def corpus():
    return CORPUS


@pytest.fixture
def etviz_bin():
    if not BIN:
        pytest.fail("ETVIZ_BIN is not set (run through ctest)")
    return BIN
