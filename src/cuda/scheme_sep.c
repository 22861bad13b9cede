/* Family table of the sep schemes (lw_scheme.h).  Empty until the family's
 * kernels land; the registry and executor are wired already. */
#include "lw_scheme.h"

const lwk_scheme *lwk_sep_find(const char *name)
{
    (void)name;
    return 0;
}

int lwk_sep_count(void) { return 0; }

const lwk_scheme *lwk_sep_at(int i)
{
    (void)i;
    return 0;
}
