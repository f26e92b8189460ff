#!/bin/sh
# Generates configure and Makefile.in.
set -e
autoreconf --install --force
