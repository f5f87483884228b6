#include "preload_curl.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* libcurl's types and numbers, as curl.h 7.88.1 declares them (its ABI since 7.x). */
typedef void CURL;
struct curl_slist;
typedef long long curl_off_t;
typedef int (*setopt_fn)(CURL *, int, ...);
typedef int (*getinfo_fn)(CURL *, int, ...);
typedef CURL *(*easy_init_fn)(void);
typedef int (*easy_perform_fn)(CURL *);
typedef void (*easy_cleanup_fn)(CURL *);
typedef struct curl_slist *(*slist_append_fn)(struct curl_slist *, const char *);
typedef void (*slist_free_all_fn)(struct curl_slist *);
typedef int (*global_init_fn)(long);

enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_USERAGENT = 10018, OPT_HTTPHEADER = 10023,
    OPT_HEADERDATA = 10029, OPT_XFERINFODATA = 10057, OPT_SOCKOPTDATA = 10149, OPT_CLOSESOCKETDATA = 10209,
    OPT_WRITEFUNCTION = 20011, OPT_HEADERFUNCTION = 20079, OPT_SOCKOPTFUNCTION = 20148, OPT_CLOSESOCKETFUNCTION = 20208,
    OPT_XFERINFOFUNCTION = 20219, OPT_READDATA = 10009, OPT_READFUNCTION = 20012, OPT_SEEKFUNCTION = 20167, OPT_SEEKDATA = 10168,
    OPT_NETRC_FILE = 10118, OPT_INFILESIZE_LARGE = 30115, OPT_NOBODY = 44, OPT_UPLOAD = 46, OPT_NETRC = 51,
    OPT_LOW_SPEED_LIMIT = 19, OPT_LOW_SPEED_TIME = 20, OPT_NOPROGRESS = 43, OPT_FOLLOWLOCATION = 52, OPT_MAXREDIRS = 68,
    OPT_BUFFERSIZE = 98, OPT_NOSIGNAL = 99, OPT_CONNECTTIMEOUT_MS = 156, OPT_PROTOCOLS = 181, OPT_REDIR_PROTOCOLS = 182,
    INFO_RESPONSE_CODE = 0x200002,
    PROTO_HTTP = 1 << 0, PROTO_HTTPS = 1 << 1,
    GLOBAL_DEFAULT = 3,
    NETRC_IGNORED = 0, NETRC_OPTIONAL = 1,
    SEEKFUNC_OK = 0, SEEKFUNC_FAIL = 1,
    ERROR_SIZE = 256,
};

static size_t on_header(char *line, size_t size, size_t count, void *data) {
    const preload_curl_callbacks *callbacks = data;
    size_t length = size * count, text = length;
    while (text > 0 && (line[text - 1] == '\n' || line[text - 1] == '\r')) text--;
    return callbacks->header(callbacks->context, line, text) ? length : 0;
}

static size_t on_body(char *bytes, size_t size, size_t count, void *data) {
    const preload_curl_callbacks *callbacks = data;
    size_t length = size * count;
    return callbacks->body(callbacks->context, bytes, length) ? length : 0;
}

static int on_progress(void *data, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d) {
    (void)a, (void)b, (void)c, (void)d;
    const preload_curl_callbacks *callbacks = data;
    return callbacks->stopped(callbacks->context) ? 1 : 0;
}

static int on_socket(void *data, int descriptor, int purpose) {
    (void)purpose;
    const preload_curl_callbacks *callbacks = data;
    callbacks->socket(callbacks->context, descriptor, 1);
    return 0; /* CURL_SOCKOPT_OK */
}

static int on_close(void *data, int descriptor) {
    const preload_curl_callbacks *callbacks = data;
    callbacks->socket(callbacks->context, descriptor, 0);
    return close(descriptor);
}

/* A PUT's body, read from memory (and read again from the start when libcurl must send it again). */
typedef struct upload_cursor {
    const char *bytes;
    size_t length, offset;
} upload_cursor;

static size_t on_read(char *buffer, size_t size, size_t count, void *data) {
    upload_cursor *cursor = data;
    size_t length = cursor->length - cursor->offset;
    if (length > size * count) length = size * count;
    if (length > 0) memcpy(buffer, cursor->bytes + cursor->offset, length);
    cursor->offset += length;
    return length;
}

static int on_seek(void *data, curl_off_t offset, int origin) {
    upload_cursor *cursor = data;
    if (origin != SEEK_SET || offset < 0 || (size_t)offset > cursor->length) return SEEKFUNC_FAIL;
    cursor->offset = (size_t)offset;
    return SEEKFUNC_OK;
}

int preload_curl_global_init(const preload_curl_api *api) {
    return ((global_init_fn)api->global_init)(GLOBAL_DEFAULT);
}

int preload_curl_perform(
    const preload_curl_api *api, const preload_curl_request *request, long *status, char *error, const preload_curl_callbacks *callbacks) {
    setopt_fn setopt = (setopt_fn)api->easy_setopt;
    slist_append_fn append = (slist_append_fn)api->slist_append;
    error[0] = 0;
    *status = 0;
    CURL *curl = ((easy_init_fn)api->easy_init)();
    if (!curl) {
        strncpy(error, "libcurl could not make a handle", ERROR_SIZE - 1);
        return -1;
    }
    struct curl_slist *list = NULL;
    for (int index = 0; index <= request->header_count; index++) {
        /* After the caller's headers, a PUT's empty `Expect:` (no 100-continue round trip). */
        const char *header = index < request->header_count ? request->headers[index] : NULL;
        if (!header && request->method == PRELOAD_CURL_PUT) header = "Expect:";
        if (!header) break;
        struct curl_slist *longer = append(list, header);
        if (!longer) break;
        list = longer;
    }
    upload_cursor cursor = {request->upload, request->upload_length, 0};
    setopt(curl, OPT_ERRORBUFFER, error);
    setopt(curl, OPT_URL, request->url);
    setopt(curl, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    setopt(curl, OPT_REDIR_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    setopt(curl, OPT_FOLLOWLOCATION, (long)(request->max_redirects > 0));
    setopt(curl, OPT_MAXREDIRS, request->max_redirects);
    setopt(curl, OPT_NOSIGNAL, 1L);
    setopt(curl, OPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    setopt(curl, OPT_LOW_SPEED_LIMIT, 1L);
    setopt(curl, OPT_LOW_SPEED_TIME, request->low_speed_seconds);
    setopt(curl, OPT_BUFFERSIZE, 512L * 1024);
    setopt(curl, OPT_USERAGENT, request->user_agent);
    setopt(curl, OPT_HTTPHEADER, list);
    setopt(curl, OPT_NETRC, (long)(request->netrc ? NETRC_OPTIONAL : NETRC_IGNORED));
    if (request->netrc && request->netrc_file) setopt(curl, OPT_NETRC_FILE, request->netrc_file);
    if (request->method == PRELOAD_CURL_HEAD) setopt(curl, OPT_NOBODY, 1L);
    if (request->method == PRELOAD_CURL_PUT) {
        setopt(curl, OPT_UPLOAD, 1L);
        setopt(curl, OPT_INFILESIZE_LARGE, (curl_off_t)request->upload_length);
        setopt(curl, OPT_READFUNCTION, on_read);
        setopt(curl, OPT_READDATA, (void *)&cursor);
        setopt(curl, OPT_SEEKFUNCTION, on_seek);
        setopt(curl, OPT_SEEKDATA, (void *)&cursor);
    }
    setopt(curl, OPT_HEADERFUNCTION, on_header);
    setopt(curl, OPT_HEADERDATA, (void *)callbacks);
    setopt(curl, OPT_WRITEFUNCTION, on_body);
    setopt(curl, OPT_WRITEDATA, (void *)callbacks);
    setopt(curl, OPT_NOPROGRESS, 0L);
    setopt(curl, OPT_XFERINFOFUNCTION, on_progress);
    setopt(curl, OPT_XFERINFODATA, (void *)callbacks);
    setopt(curl, OPT_SOCKOPTFUNCTION, on_socket);
    setopt(curl, OPT_SOCKOPTDATA, (void *)callbacks);
    setopt(curl, OPT_CLOSESOCKETFUNCTION, on_close);
    setopt(curl, OPT_CLOSESOCKETDATA, (void *)callbacks);
    int result = ((easy_perform_fn)api->easy_perform)(curl);
    ((getinfo_fn)api->easy_getinfo)(curl, INFO_RESPONSE_CODE, status);
    ((easy_cleanup_fn)api->easy_cleanup)(curl);
    if (list) ((slist_free_all_fn)api->slist_free_all)(list);
    return result;
}
