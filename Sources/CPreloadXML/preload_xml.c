// The sizes and offsets of the structures declared in preload_xml.h, as libxml2 2.9.14's own
// headers give them on 64-bit Linux (measured with sizeof/offsetof against <libxml/parser.h> and
// <libxml/xmlerror.h>): a change to the declarations that moves a field fails the build here.
#include "preload_xml.h"

#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(PreloadXMLSAXHandler) == 256, "xmlSAXHandler's size differs");
_Static_assert(offsetof(PreloadXMLSAXHandler, characters) == 136, "xmlSAXHandler.characters differs");
_Static_assert(offsetof(PreloadXMLSAXHandler, cdataBlock) == 200, "xmlSAXHandler.cdataBlock differs");
_Static_assert(offsetof(PreloadXMLSAXHandler, initialized) == 216, "xmlSAXHandler.initialized differs");
_Static_assert(offsetof(PreloadXMLSAXHandler, startElementNs) == 232, "xmlSAXHandler.startElementNs differs");
_Static_assert(offsetof(PreloadXMLSAXHandler, endElementNs) == 240, "xmlSAXHandler.endElementNs differs");
_Static_assert(offsetof(PreloadXMLSAXHandler, structuredError) == 248, "xmlSAXHandler.serror differs");
_Static_assert(offsetof(PreloadXMLError, message) == 8, "xmlError.message differs");
_Static_assert(offsetof(PreloadXMLError, line) == 32, "xmlError.line differs");
#endif
