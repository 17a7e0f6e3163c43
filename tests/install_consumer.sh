#!/bin/sh
# scaleopt as another project uses it (docs/library.md).
#
#   install_consumer.sh install CMAKE BUILD_DIR SOURCE_DIR CXX build_type=TYPE
#     installs BUILD_DIR into a temporary prefix (cmake --install), configures and builds the
#     separate project examples/cpp against it (find_package(scaleopt CONFIG REQUIRED)), runs
#     its programs beside the installed `scaleopt` and compares their numbers
#     (tests/install_consumer.py); also checks that no installed header includes a header
#     that was not installed, or toml++, the CSV parser or CLI11.
#   install_consumer.sh subproject CMAKE SOURCE_DIR CXX
#     configures examples/cpp with scaleopt as a subproject (add_subdirectory): it must not set
#     the build type, nor add tests or benchmarks (examples/cpp/CMakeLists.txt fails if it does).
#     Configure only: building every library again would take minutes.
set -eu

mode=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$mode" = subproject ]; then
  cmake=$2 source=$3 cxx=$4
  "$cmake" -S "$source/examples/cpp" -B "$tmp/build" -DSCALEOPT_SOURCE_DIR="$source" \
    -DCMAKE_CXX_COMPILER="$cxx" > "$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; exit 1; }
  build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$tmp/build/CMakeCache.txt")
  if [ -n "$build_type" ]; then
    echo "scaleopt as a subproject set CMAKE_BUILD_TYPE=$build_type"
    exit 1
  fi
  if grep -q '^SCALEOPT_WERROR:BOOL=ON' "$tmp/build/CMakeCache.txt"; then
    echo "scaleopt as a subproject turned -Werror on"
    exit 1
  fi
  echo "subproject: configured, no build type set, no tests, no benchmarks, no -Werror"
  exit 0
fi

# build_type= may be empty (ctest would drop an empty argument rather than pass it).
cmake=$2 build=$3 source=$4 cxx=$5 build_type=${6#build_type=}
prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" > "$tmp/install.log" ||
  { cat "$tmp/install.log"; exit 1; }

# Every scaleopt header an installed header includes is installed too; none includes a
# dependency scaleopt links privately or the command line's.
status=0
for header in $(find "$prefix/include/scaleopt" -name '*.hpp'); do
  for included in $(sed -n 's|^#include "\(scaleopt/[^"]*\)".*|\1|p' "$header"); do
    if [ ! -f "$prefix/include/$included" ]; then
      echo "${header#"$prefix/"} includes $included, which is not installed"
      status=1
    fi
  done
  if grep -Eq '^#include [<"](toml\+\+/|csv\.h|CLI/)' "$header"; then
    echo "${header#"$prefix/"} includes a private dependency's header"
    status=1
  fi
done
[ $status -eq 0 ] || exit 1

"$cmake" -S "$source/examples/cpp" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_COMPILE_WARNING_AS_ERROR=ON \
  > "$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; exit 1; }
"$cmake" --build "$tmp/build" -j 2 > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }

/usr/bin/python3 "$source/tests/install_consumer.py" "$prefix/bin/scaleopt" "$tmp/build" \
  "$source"
