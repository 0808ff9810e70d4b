/* version.c — mos_version(): the version this library was built as. */
#include "mosaic.h"

uint32_t mos_version(void)
{
    return MOS_VERSION;
}
