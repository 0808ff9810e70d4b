/* stb_image_impl.c — stb_image's TGA decoder (the one Mosaic uses) compiled into the fuzz targets and their
 * replay binaries in place of Debian's libstb (not instrumented), so libFuzzer sees its branches and ASan checks
 * its memory.  PNG and JPEG go to libpng and libjpeg-turbo.  Built by test/fuzz/fuzz.mk. */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_TGA
#include <stb_image.h>
