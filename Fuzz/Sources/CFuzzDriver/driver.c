// LLVMFuzzerRunDriver comes from libFuzzer (swiftc -sanitize=fuzzer); nothing to define here.
