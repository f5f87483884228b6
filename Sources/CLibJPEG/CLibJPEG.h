// libjpeg (libjpeg-turbo's libjpeg API): jpeglib.h needs stdio.h's FILE first.
#include <stdio.h>
#include <jpeglib.h>
