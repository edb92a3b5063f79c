/* What the project's C99 walkthroughs of trnsolver's C API share (trnsolver_c_*_walkthrough(s).c): the
 * status check that records the first status that was not SUCCESS in `failed` and jumps to the
 * function's `done:` label, where the walkthrough frees its buffers and destroys its handles. */
#ifndef TRNSOLVER_C_WALKTHROUGH_H
#define TRNSOLVER_C_WALKTHROUGH_H

#define WALK_CHECK(call)             \
  do {                               \
    const int status_ = (int)(call); \
    if (status_ != 0) {              \
      failed = status_;              \
      goto done;                     \
    }                                \
  } while (0)

#endif
