/* trnsparse_v2.h - cuSPARSE's cusparse_v2.h after the prefix substitution: the same API as trnsparse.h. */
#ifndef TRNSPARSE_V2_H
#define TRNSPARSE_V2_H
#include "trnsparse.h"
#endif /* TRNSPARSE_V2_H */
