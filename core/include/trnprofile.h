/* trnprofile.h - the versioned layout of trnProfile_t (trncore.h) and the size-aware getter every
 * trnsci C API has (docs/architecture.md "Versioned trnProfile_t"). Pure C.
 *
 * trnProfile_t has grown by appended fields; a binary compiled against an older header holds a
 * shorter struct. Fields are only ever appended (never moved, retyped or removed), so version k is a
 * prefix of version k + 1 and of trnProfile_t; each size below is what sizeof gave a caller compiled
 * against that header:
 *   v1                    target .. instructions_per_engine
 *   v2                    + host_roundtrip_ns, host_critical_ns, host_flops, host_bytes, host_steps
 *   v3                    + tensor_flops, roofline_ns, cores (trnProfile_t today; frozen)
 * H##GetLastProfileSized(h, profile, size) writes exactly the first `size` bytes of *profile: the
 * prefix of the library's profile, and zeros for the fields of a caller newer than the library.
 * size < TRN_PROFILE_SIZE_V1 is INVALID_VALUE (position 2), profile NULL position 1, nothing written.
 * A caller passes sizeof(its trnProfile_t). H##GetLastProfile writes TRN_PROFILE_SIZE_V3 bytes for
 * ever: a field added after v3 is read only through the sized form. */
#ifndef TRNPROFILE_H
#define TRNPROFILE_H

#include <stddef.h> /* size_t, offsetof */

#include "trncore.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRN_PROFILE_SIZE_V1 offsetof(trnProfile_t, host_roundtrip_ns)
#define TRN_PROFILE_SIZE_V2 offsetof(trnProfile_t, tensor_flops)
#define TRN_PROFILE_SIZE_V3 sizeof(trnProfile_t)

/* Declares H##GetLastProfileSized for one library, next to its TRN_EMULATION_API (same H, Handle,
 * Status); defined by the C-shim kit's TRN_CSHIM_EMULATION_ENTRY_POINTS. */
#define TRN_PROFILE_SIZED_API(H, Handle, Status) \
  Status H##GetLastProfileSized(Handle handle, trnProfile_t* profile, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* TRNPROFILE_H */
