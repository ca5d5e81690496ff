/*
 * The header's version macros agree with tg_version() of the library actually loaded,
 * and the header can be included twice.
 */
#include "toolgate.h"
#include "toolgate.h" /* twice: the include guard must hold */

#include "test_util.h"

#define STR2(x) #x
#define STR(x) STR2(x)

int main(void) {
    const char *loaded = tg_version();
    unsigned major = 0, minor = 0, patch = 0;
    char rest = 0;
    CHECK(loaded != NULL);
    if (loaded == NULL) {
        return tu_finish("test_version");
    }
    CHECK_MSG(strcmp(loaded, TOOLGATE_VERSION) == 0, "tg_version() = %s, TOOLGATE_VERSION = %s",
              loaded, TOOLGATE_VERSION);
    CHECK_MSG(sscanf(loaded, "%u.%u.%u%c", &major, &minor, &patch, &rest) == 3,
              "tg_version() = \"%s\" is not MAJOR.MINOR.PATCH", loaded);
    CHECK(major == TOOLGATE_VERSION_MAJOR);
    CHECK(minor == TOOLGATE_VERSION_MINOR);
    CHECK(patch == TOOLGATE_VERSION_PATCH);
    CHECK(strcmp(TOOLGATE_VERSION, STR(TOOLGATE_VERSION_MAJOR) "." STR(TOOLGATE_VERSION_MINOR) "." STR(
                                       TOOLGATE_VERSION_PATCH)) == 0);
    /* The same pointer every time: static storage. */
    CHECK(tg_version() == loaded);
    /* Fixed-width ABI types. */
    CHECK(sizeof(tg_status) == 4);
    CHECK(sizeof(tg_name_policy) == 4);
    CHECK(TG_OK == 0);
    printf("toolgate %s (header %s)\n", loaded, TOOLGATE_VERSION);
    return tu_finish("test_version");
}
