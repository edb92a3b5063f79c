/* trnsolverDn.h - the same API as trnsolver.h, under cuSOLVER's header name (cusolverDn.h). */
#ifndef TRNSOLVER_DN_H
#define TRNSOLVER_DN_H
#include "trnsolver.h"
#endif /* TRNSOLVER_DN_H */
