# Bit-exactness with numpy needs IEEE float semantics: no contraction of a*b+c into an FMA and
# no fast-math. The numpy tanh port calls std::fma explicitly where numpy uses an FMA.
add_library(weightspace_numerics INTERFACE)
target_compile_options(weightspace_numerics INTERFACE -ffp-contract=off -fno-fast-math)

# x86-64-v3 (AVX2 + FMA) makes std::fma a single instruction and lets the compiler vectorise
# the 32-wide policy loops; results are identical without it, only slower.
include(CheckCXXSourceRuns)
option(WEIGHTSPACE_X86_64_V3 "Compile for x86-64-v3 (AVX2, FMA) when the build machine has it" ON)
# Decided at each configure: the host check below is cached, and may be TRUE in a build folder
# where the option was turned off later.
set(weightspace_x86_64_v3 OFF)
if(WEIGHTSPACE_X86_64_V3 AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(CMAKE_REQUIRED_FLAGS "-march=x86-64-v3")
  check_cxx_source_runs("
    int main() { return (__builtin_cpu_supports(\"avx2\") && __builtin_cpu_supports(\"fma\")) ? 0 : 1; }"
    WEIGHTSPACE_HOST_HAS_X86_64_V3)
  unset(CMAKE_REQUIRED_FLAGS)
  if(WEIGHTSPACE_HOST_HAS_X86_64_V3)
    set(weightspace_x86_64_v3 ON)
    target_compile_options(weightspace_numerics INTERFACE -march=x86-64-v3)
  endif()
endif()
if(NOT weightspace_x86_64_v3)
  # Without AVX, GCC notes that a 32-byte vector passed by value (the portable vector code of
  # the sampler and the MT19937 twist) has another ABI. Those functions are internal to their
  # files and inlined, so no call crosses an ABI boundary; -Werror must not stop the build.
  target_compile_options(weightspace_numerics INTERFACE $<$<CXX_COMPILER_ID:GNU>:-Wno-psabi>)
endif()
