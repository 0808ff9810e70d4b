/* result.c — names and default messages of mos_result codes.
 * grep ORDER MOS_RESULTS: expands the list in include/mosaic.h. */
#include "mosaic.h"

static const char *const result_names[] = {
#define MOS_X_NAME(name, msg) #name,
    MOS_RESULTS(MOS_X_NAME)
#undef MOS_X_NAME
};
static const char *const result_messages[] = {
#define MOS_X_MSG(name, msg) msg,
    MOS_RESULTS(MOS_X_MSG)
#undef MOS_X_MSG
};
_Static_assert(sizeof result_names / sizeof result_names[0] == MOS_RESULT_COUNT, "one name per result");

const char *mos_result_name(mos_result r)
{
    return (unsigned)r < MOS_RESULT_COUNT ? result_names[r] : "MOS_ERR_UNKNOWN";
}

const char *mos_result_message(mos_result r)
{
    return (unsigned)r < MOS_RESULT_COUNT ? result_messages[r] : "unknown result code";
}
