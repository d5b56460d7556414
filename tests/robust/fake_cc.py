#!/usr/bin/env python3
"""A stand-in compiler for the test that the crash fuzzer's oracle can fail
(robust.oracle_catches): it runs the real compiler (BD_REAL_CC, default
clang-19), but with -fplugin it misbehaves as BD_FAKE says:
  crash      print clang's crash banner and die of SIGSEGV's exit status
  unlocated  print an error without a location and exit 1
  generated  print a warning located in generated code
"""
import os
import subprocess
import sys

args = sys.argv[1:]
real = os.environ.get("BD_REAL_CC", "clang-19")
mode = os.environ.get("BD_FAKE", "")
if mode and any(a.startswith("-fplugin=") for a in args):
    if mode == "crash":
        sys.stderr.write("PLEASE submit a bug report to https://x\n"
                         "Stack dump:\n0. Program arguments: clang\n")
        sys.exit(139)
    if mode == "unlocated":
        sys.stderr.write("error: batchdiff: something went wrong\n")
        sys.exit(1)
    if mode == "generated":
        rc = subprocess.call([real] + args)
        sys.stderr.write("<batchdiff:f>:3:7: warning: unused variable "
                         "'__bd_t1'\n")
        sys.exit(rc)
sys.exit(subprocess.call([real] + args))
