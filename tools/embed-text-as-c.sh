#!/bin/sh
# embed-text-as-c.sh NAME FILE: a C definition `const char NAME[]` holding FILE's text,
# so the built-in scenario and Tcl library need no installed files.
set -e
name=$1
file=$2
printf '/* generated from %s by tools/embed-text-as-c.sh; do not edit */\n' "$file"
printf 'const char %s[] =\n' "$name"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$/\\n"/' "$file"
printf ';\n'
