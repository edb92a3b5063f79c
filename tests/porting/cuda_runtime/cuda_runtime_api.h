/* cuda_runtime_api.h - the host stand-in's second name (CUDA's cuda_runtime.h includes
 * cuda_runtime_api.h; samples include either): see cuda_runtime.h beside it. */
#include "cuda_runtime.h"
