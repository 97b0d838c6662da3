/* Declarations of the specialised kernels listed in kernel_list.inc. */
#ifndef MAXPOOL_KERNELS_H
#define MAXPOOL_KERNELS_H

#include "../plan.h"

#endif
