# `make package` (cpack -G DEB): one .deb, attention-lab_<version>-<release>_<arch>.deb, installed under /usr.
# Its Depends line is worked out from the binaries by dpkg-shlibdeps (Debian: dpkg-dev), as debhelper's
# ${shlibs:Depends} would be, so it names the Qt, OpenBLAS and libstdc++ versions this build really links.
# A package is for other machines: configure it with -DATTNLAB_NATIVE=OFF (the Makefile's package build does).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME attention-lab)
set(CPACK_PACKAGE_VENDOR "Attention Lab")
set(CPACK_PACKAGE_CONTACT "Attention Lab <dev@attention-lab.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "multi-head attention, stage by stage, for learners")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_STRIP_FILES ON)
set(CPACK_VERBATIM_VARIABLES ON) # the description quotes the book's title

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Not found by dpkg-shlibdeps: Qt loads these as plugins. Without qt6-qpa-plugins (only recommended by
# libqt6gui6) an `apt-get install --no-install-recommends` leaves a GUI that cannot open an X11 window;
# the SVG icon engine (libqt6svg6) is linked, so shlibdeps finds that one.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
# The recorder (attention_lab_probe.py) and the training scripts run in the learner's own PyTorch.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-torch")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The extended description, under the summary (CPack puts that first and indents the lines; "." is an
# empty line between paragraphs).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Attention Lab steps through multi-head attention the way chapter 3 of
\"Build a Large Language Model (From Scratch)\" builds it: every stage's
code line, shape, strides and contiguity, the attention weights of each
head as heatmaps, the diagnostics of a constructor call and their fixes,
debugging lessons, and four small GPTs trained on The Verdict.
.
attention-lab is the desktop program; attention-lab-cli answers the same
questions in a terminal or a script (validate, trace, run, compare, ...).
/usr/share/attention-lab/attention_lab_probe.py records a learner's own
PyTorch module for File > Compare With My Code.")

include(CPack)
