// The part of libxml2's ABI that PreloadXML uses, declared here so that the package builds
// without libxml2's development headers: the module opens libxml2.so.2 at run time (Preload's
// SystemLibrary) and calls its functions through pointers.
//
// These are libxml2 2.x's SAX2 handler and the leading fields of its error record, unchanged since
// libxml2 2.6 (the SAX2 fields) and 2.0 (the error): the soname libxml2.so.2 has kept them. The
// sizes and offsets are checked in preload_xml.c against those of libxml2 2.9.14's own headers.
#ifndef PRELOAD_XML_H
#define PRELOAD_XML_H

#include <stddef.h>

/// `XML_SAX2_MAGIC`: a handler with it set is a SAX2 handler.
#define PRELOAD_XML_SAX2_MAGIC 0xDEEDBEAFu

typedef unsigned char PreloadXMLChar;

typedef void (*PreloadXMLCharacters)(void *context, const PreloadXMLChar *characters, int length);
typedef void (*PreloadXMLStartElementNs)(
    void *context, const PreloadXMLChar *localName, const PreloadXMLChar *prefix, const PreloadXMLChar *uri, int namespaceCount,
    const PreloadXMLChar **namespaces, int attributeCount, int defaultedCount, const PreloadXMLChar **attributes);
typedef void (*PreloadXMLEndElementNs)(void *context, const PreloadXMLChar *localName, const PreloadXMLChar *prefix, const PreloadXMLChar *uri);
typedef void (*PreloadXMLStructuredError)(void *context, const void *error);

/// `xmlSAXHandler`: the callbacks this module sets are named; the others stay null.
typedef struct PreloadXMLSAXHandler {
    void *unused1[17];  // internalSubset ... reference
    PreloadXMLCharacters characters;
    void *unused2[7];  // ignorableWhitespace ... getParameterEntity
    PreloadXMLCharacters cdataBlock;
    void *externalSubset;
    unsigned int initialized;
    void *privateData;
    PreloadXMLStartElementNs startElementNs;
    PreloadXMLEndElementNs endElementNs;
    PreloadXMLStructuredError structuredError;
} PreloadXMLSAXHandler;

/// The leading fields of `xmlError`: what went wrong, and on which line.
typedef struct PreloadXMLError {
    int domain;
    int code;
    const char *message;
    int level;
    const char *file;
    int line;
} PreloadXMLError;

#endif
