"""Shared pytest setup: GPU tests skip cleanly where no GPU is present."""

import json
import os

import pytest


def _has_gpu() -> bool:
    try:
        from cuda.bindings import driver

        (err,) = driver.cuInit(0)
        if err != driver.CUresult.CUDA_SUCCESS:
            return False
        err, count = driver.cuDeviceGetCount()
        return err == driver.CUresult.CUDA_SUCCESS and count > 0
    except Exception:  # no cuda-bindings, or no driver library on this machine
        return False


def pytest_collection_modifyitems(config, items):
    if any("gpu" in item.keywords for item in items) and not _has_gpu():
        skip = pytest.mark.skip(reason="needs an NVIDIA GPU")
        for item in items:
            if "gpu" in item.keywords:
                item.add_marker(skip)


# docs/tools/troubleshooting.py sets COOP_RECORD_ERRORS to a file: every
# error a test expects with pytest.raises is appended to it, with the test,
# so the guide's list of messages comes from the tests that raise them.
_RECORD = os.environ.get("COOP_RECORD_ERRORS")


class _RecordedRaises:
    def __init__(self, context):
        self._context = context

    def __enter__(self):
        return self._context.__enter__()

    def __exit__(self, kind, error, traceback):
        suppressed = self._context.__exit__(kind, error, traceback)
        if error is not None and suppressed:
            with open(_RECORD, "a", encoding="utf-8") as out:
                out.write(json.dumps({"test": os.environ["PYTEST_CURRENT_TEST"].rsplit(" (", 1)[0],
                                      "type": type(error).__name__,
                                      "message": str(error)}) + "\n")
        return suppressed


@pytest.fixture(autouse=_RECORD is not None)
def _record_expected_errors(monkeypatch):
    raises = pytest.raises

    def recording(*args, **kwargs):
        context = raises(*args, **kwargs)
        # The callable form has already run and returned its ExceptionInfo.
        return context if isinstance(context, pytest.ExceptionInfo) else _RecordedRaises(context)

    monkeypatch.setattr(pytest, "raises", recording)
