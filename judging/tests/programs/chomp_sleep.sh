#!/bin/sh
# Chomp test player that never answers.
exec sleep 1000
