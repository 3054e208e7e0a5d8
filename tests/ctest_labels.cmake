# Gives doctest cases CTest labels from their doctest test suite (`TEST_CASE("..." *
# doctest::test_suite("shared"))`): run at build time, after planlint_tests is linked, it lists
# the cases of each suite in LABELS and writes set_tests_properties calls to OUTPUT, which CTest
# includes after doctest_discover_tests' list (CMakeLists.txt). A case belongs to one suite.
# Usage: cmake -D TEST_EXECUTABLE=... -D OUTPUT=... -D LABELS=shared,slow -P tests/ctest_labels.cmake
string(REPLACE "," ";" LABELS "${LABELS}")
set(script "")
foreach(label ${LABELS})
  execute_process(COMMAND "${TEST_EXECUTABLE}" "--test-suite=${label}" --list-test-cases
    OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${TEST_EXECUTABLE} --list-test-cases failed (${rc}): ${out}")
  endif()
  string(REPLACE "\n" ";" lines "${out}")
  foreach(line ${lines})
    if(line STREQUAL "" OR line MATCHES "^===" OR line MATCHES "^\\[doctest\\] ")
      continue()
    endif()
    string(APPEND script "set_tests_properties([==[${line}]==] PROPERTIES LABELS ${label})\n")
  endforeach()
endforeach()
file(WRITE "${OUTPUT}" "${script}")
