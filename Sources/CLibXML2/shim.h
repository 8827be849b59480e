// libxml2's streaming reader. The ICU switch is turned off before the other headers so that
// they do not pull in ICU's headers, which clash with the copy Foundation carries; Strata uses
// no API that depends on it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
