"""The notebooks in notebooks/ run top to bottom (with KINGDOMINO_NOTEBOOK_QUICK=1: tiny settings)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


@pytest.mark.parametrize("name", ["01_quickstart", "02_training", "03_tournament", "04_analysis"])
def test_notebook_runs_top_to_bottom(name, monkeypatch):
    pytest.importorskip("sb3_contrib")
    monkeypatch.setenv("KINGDOMINO_NOTEBOOK_QUICK", "1")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(NOTEBOOKS.parent),
                                                                   os.environ.get("PYTHONPATH")])))
    book = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    client = nbclient.NotebookClient(book, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    errors = [o for cell in book.cells if cell.cell_type == "code" for o in cell.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors


def test_notebooks_are_saved_with_their_outputs():
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        book = nbformat.read(path, as_version=4)
        code = [cell for cell in book.cells if cell.cell_type == "code"]
        assert code and all(cell.get("execution_count") for cell in code), f"{path.name} is not executed"
        assert any(cell.get("outputs") for cell in code), f"{path.name} has no outputs"
