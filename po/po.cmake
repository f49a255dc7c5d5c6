# po/po.cmake (included by apps/cli/CMakeLists.txt): the terminal game's languages.
# Messages go through GNU gettext (glibc's libintl: apps/cli/cli_i18n.h); each po/LANG.po
# is compiled by msgfmt (Debian's `gettext` package) into
# build/locale/LANG/LC_MESSAGES/damier.mo, which the program reads while the build tree
# is there, and installed into PREFIX/share/locale. Without libintl.h the messages are
# English (DM_NLS 0); without msgfmt there are no catalogs, and the program says the
# English texts. `make pot` refreshes po/damier.pot and the .po files (xgettext,
# msgmerge). How to add a language or a string: docs/WEB.md "Languages".
include(GNUInstallDirs)
include(CheckIncludeFile)
check_include_file(libintl.h DM_HAVE_LIBINTL_H)
if(DM_HAVE_LIBINTL_H)
  target_compile_definitions(damier PRIVATE DM_NLS=1
    DM_LOCALEDIR_BUILD="${PROJECT_BINARY_DIR}/locale"
    DM_LOCALEDIR="${CMAKE_INSTALL_FULL_LOCALEDIR}")
else()
  message(STATUS "damier play: no libintl.h, the terminal game is in English only")
endif()
find_program(DM_MSGFMT msgfmt)
file(GLOB dm_po_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/po/*.po)
if(DM_HAVE_LIBINTL_H AND DM_MSGFMT)
  set(dm_mo_files "")
  foreach(po ${dm_po_files})
    get_filename_component(lang ${po} NAME_WE)
    set(mo ${PROJECT_BINARY_DIR}/locale/${lang}/LC_MESSAGES/damier.mo)
    add_custom_command(OUTPUT ${mo}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/locale/${lang}/LC_MESSAGES
      COMMAND ${DM_MSGFMT} --check -o ${mo} ${po}
      DEPENDS ${po} COMMENT "msgfmt po/${lang}.po")
    list(APPEND dm_mo_files ${mo})
    install(FILES ${mo} DESTINATION ${CMAKE_INSTALL_LOCALEDIR}/${lang}/LC_MESSAGES)
  endforeach()
  add_custom_target(damier_mo ALL DEPENDS ${dm_mo_files})
  add_dependencies(damier damier_mo)
  string(REPLACE "${PROJECT_SOURCE_DIR}/" "" dm_po_names "${dm_po_files}")
  message(STATUS "damier play: messages in English and ${dm_po_names}")
elseif(DM_HAVE_LIBINTL_H)
  message(STATUS "damier play: msgfmt not found, the terminal game is in English only (apt-get install gettext)")
endif()
