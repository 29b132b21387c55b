# SPDX-License-Identifier: GPL-3.0-or-later
from typing import Sequence

TRAJECTORY: str
REWARD: str

def main(argv: Sequence[str] | None = None) -> None: ...
