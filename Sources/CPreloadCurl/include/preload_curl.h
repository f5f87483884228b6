#ifndef PRELOAD_CURL_H
#define PRELOAD_CURL_H

/* libcurl's easy interface, as PreloadRemote uses it: the functions are opened at run time
   (libcurl.so.4, Debian's libcurl4, which every machine with Swift's Foundation has), so the
   package builds without libcurl's headers. The option and result numbers below are libcurl's
   stable ABI (curl.h of 7.88.1, checked against it); curl_easy_setopt and curl_easy_getinfo are
   variadic, which Swift cannot call, so this shim calls them. */

#include <stddef.h>
#include <stdint.h>

/* The libcurl functions PreloadRemote resolves, as untyped pointers (dlsym's). */
typedef struct preload_curl_api {
    void *global_init;
    void *easy_init;
    void *easy_setopt;
    void *easy_perform;
    void *easy_getinfo;
    void *easy_cleanup;
    void *slist_append;
    void *slist_free_all;
} preload_curl_api;

/* What one transfer tells its owner, each with the owner's `context`. */
typedef struct preload_curl_callbacks {
    void *context;
    /* A header line without its line end (an empty one ends a response's headers); return 0 to stop. */
    int (*header)(void *context, const char *line, size_t length);
    /* Body bytes; return 0 to stop. */
    int (*body)(void *context, const void *bytes, size_t length);
    /* A connection's socket was opened (`opened` 1) or is about to be closed (0): the owner may
       shut it down from another thread between the two, to stop a transfer at once. */
    void (*socket)(void *context, int descriptor, int opened);
    /* Polled while the transfer runs: nonzero stops it. */
    int (*stopped)(void *context);
} preload_curl_callbacks;

/* What libcurl's results mean to the caller. */
enum {
    PRELOAD_CURLE_OK = 0,
    PRELOAD_CURLE_UNSUPPORTED_PROTOCOL = 1,
    PRELOAD_CURLE_URL_MALFORMAT = 3,
    PRELOAD_CURLE_COULDNT_RESOLVE_PROXY = 5,
    PRELOAD_CURLE_COULDNT_RESOLVE_HOST = 6,
    PRELOAD_CURLE_COULDNT_CONNECT = 7,
    PRELOAD_CURLE_WRITE_ERROR = 23,
    PRELOAD_CURLE_OPERATION_TIMEDOUT = 28,
    PRELOAD_CURLE_ABORTED_BY_CALLBACK = 42,
    PRELOAD_CURLE_TOO_MANY_REDIRECTS = 47,
};

/* libcurl's global set-up (once per process, before any transfer); returns its result. */
int preload_curl_global_init(const preload_curl_api *api);

/* What a request does. */
enum {
    PRELOAD_CURL_GET = 0,
    PRELOAD_CURL_HEAD = 1, /* the response's head alone (CURLOPT_NOBODY) */
    PRELOAD_CURL_PUT = 2,  /* `upload` sent as the body, with its Content-Length and no `Expect: 100-continue` */
};

/* One request: `method` of `url` with `header_count` request headers ("Name: value"), following
   at most `max_redirects` redirects, over http and https only (the URL and every redirect), TLS
   peers verified, no content decoding; `connect_timeout_ms` to connect, and cut after
   `low_speed_seconds` without a byte. A user and password in the URL are sent (Basic), and with
   `netrc` nonzero so are those of the URL's host in `netrc_file` (NULL: ~/.netrc) when the URL
   has none (CURL_NETRC_OPTIONAL; a missing file is no error). */
typedef struct preload_curl_request {
    const char *url;
    int method;
    const void *upload;
    size_t upload_length;
    const char *const *headers;
    int header_count;
    const char *user_agent;
    long max_redirects;
    long connect_timeout_ms;
    long low_speed_seconds;
    int netrc;
    const char *netrc_file;
} preload_curl_request;

/* Performs `request`, blocking until it ends; returns libcurl's result (0: the whole response
   was delivered), with its words in `error` (256 bytes) and the last response's status in
   `status`. */
int preload_curl_perform(
    const preload_curl_api *api, const preload_curl_request *request, long *status, char *error, const preload_curl_callbacks *callbacks);

#endif
