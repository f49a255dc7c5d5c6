# Strict warnings for every target; -Werror when DM_WERROR is on (CI turns it on).
add_compile_options(-Wall -Wextra -Wshadow -Wundef -Wstrict-prototypes
                    -Wmissing-prototypes -Wwrite-strings -Wpointer-arith -Wvla)
if(DM_WERROR)
  add_compile_options(-Werror)
endif()
