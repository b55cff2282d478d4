# Runs one libFuzzer target for SECONDS on a fresh copy of its seed corpus under WORK, so the inputs
# it adds never land in the source tree, and fails when it finds anything: a crash, a sanitizer
# report, a broken invariant (an abort), an input slower than 10 s or memory beyond the limits.
# The input that did it is saved under WORK; run the target on that file to reproduce it.
#   cmake -DFUZZER=... -DCORPUS=... -DDICT=... -DWORK=... -DSECONDS=... -P run_fuzzer.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/corpus" "${WORK}/artifacts")
file(COPY "${CORPUS}/" DESTINATION "${WORK}/corpus")

# -malloc_limit_mb: no parser needs more than a few MiB for inputs of a few KiB, so a bigger single
# allocation means a size read from the input was trusted.
execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048
          -malloc_limit_mb=64 -dict=${DICT} -artifact_prefix=${WORK}/artifacts/
          -print_final_stats=1 "${WORK}/corpus"
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(GLOB found "${WORK}/artifacts/*")
  message(FATAL_ERROR "${FUZZER} found a problem (exit status ${status}); the input: ${found}\n"
                      "reproduce with: ${FUZZER} <input>")
endif()
