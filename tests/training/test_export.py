"""`python -m training.export` refuses what is not a model before loading anything, and never half-writes DEST."""

from __future__ import annotations

from pathlib import Path

import pytest

from training.export import main


@pytest.mark.parametrize("content, message", [(None, "no model file"), (b"not a zip", "is not a MaskablePPO model")])
def test_export_refuses_a_checkpoint_that_is_no_model(tmp_path: Path, capsys, content, message):
    checkpoint = tmp_path / "checkpoint.zip"
    if content is not None:
        checkpoint.write_bytes(content)
    dest = tmp_path / "dest.zip"
    dest.write_text("kept")
    with pytest.raises(SystemExit) as exit_info:
        main([str(checkpoint), str(dest)])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
    assert dest.read_text() == "kept"


def test_export_refuses_a_folder_as_destination(tmp_path: Path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path / "checkpoint.zip"), str(tmp_path)])
    assert exit_info.value.code == 2 and "is a folder" in capsys.readouterr().err
