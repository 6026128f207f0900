"""The solvers under the commands: the nearest legal deck (HiGHS)."""
