/* SPDX-License-Identifier: MIT
 * Tests of damier/diagram.h: the geometry (square 1 on the top row, square 46 bottom
 * left, both turned by flip), the SVG's pieces, arrows and marks, and the errors of the
 * arrow and square readers (what and at which character) and of bad options. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <damier/diagram.h>

static void test_diagram__geometry(void **state)
{
    (void)state;
    dm_diagram_options o = DM_DIAGRAM_OPTIONS_INIT;
    assert_int_equal(dm_diagram_size(&o), 420); /* 10 x 40 + 2 x 10 */
    double x, y;
    assert_int_equal(dm_diagram_square_centre(&x, &y, 1, &o), DM_OK);
    assert_true(x == 10 + 60 && y == 10 + 20); /* row 1, second column */
    assert_int_equal(dm_diagram_square_centre(&x, &y, 46, &o), DM_OK);
    assert_true(x == 10 + 20 && y == 10 + 380); /* the bottom left corner */
    o.flip = 1;
    assert_int_equal(dm_diagram_square_centre(&x, &y, 1, &o), DM_OK);
    assert_true(x == 10 + 340 && y == 10 + 380);
    assert_int_equal(dm_diagram_square_centre(&x, &y, 51, &o), DM_EINVAL);
    o.cell = 7;
    assert_int_equal(dm_diagram_size(&o), 0);
}

static void test_diagram__svg(void **state)
{
    (void)state;
    dm_board b;
    assert_int_equal(
        dm_board_from_fen(&b, dm_variant_get(DM_VARIANT_INTERNATIONAL), "W:W32,K42:B22", NULL),
        DM_OK);
    dm_diagram_options o = DM_DIAGRAM_OPTIONS_INIT;
    o.narrows = 1;
    o.arrows[0].from = 32;
    o.arrows[0].to = 28;
    o.nmarks = 1;
    o.marks[0] = 22;
    char *svg = NULL;
    size_t len = 0;
    dm_error err = {0};
    assert_int_equal(dm_diagram_svg(&svg, &len, &b, &o, &err), DM_OK);
    assert_int_equal(strlen(svg), len);
    assert_non_null(strstr(svg, "<title>W:W32,K42:B22</title>"));
    assert_non_null(
        strstr(svg, "<circle class=\"piece white man\" data-square=\"32\" cx=\"150\" cy=\"270\""));
    assert_non_null(
        strstr(svg, "<circle class=\"piece white king\" data-square=\"42\" cx=\"150\" cy=\"350\""));
    assert_non_null(strstr(svg, "<circle class=\"crown\" data-square=\"42\""));
    assert_non_null(
        strstr(svg, "<circle class=\"piece black man\" data-square=\"22\" cx=\"150\" cy=\"190\""));
    assert_non_null(strstr(svg, "<line class=\"arrow\" data-from=\"32\" data-to=\"28\""));
    assert_non_null(strstr(svg, "<rect class=\"mark\" data-square=\"22\""));
    assert_null(strstr(svg, "class=\"number\""));
    assert_non_null(strstr(svg, "</svg>\n"));
    free(svg);
    /* Bad options and boards are refused. */
    o.arrows[0].to = 32;
    assert_int_equal(dm_diagram_svg(&svg, &len, &b, &o, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "arrow 1: 32-32"));
    o.narrows = 0;
    o.marks[0] = 51;
    assert_int_equal(dm_diagram_svg(&svg, &len, &b, &o, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "marked square 51"));
    o.nmarks = 0;
    dm_board bad = b;
    assert_int_equal(dm_board_put(&bad, 3, DM_WHITE_MAN), DM_OK);
    assert_int_equal(dm_diagram_svg(&svg, &len, &bad, &o, &err), DM_EINVAL);
    /* A board of another size is named, not drawn as 10x10. */
    dm_board russian;
    dm_board_start(&russian, dm_variant_get(DM_VARIANT_RUSSIAN));
    assert_int_equal(dm_diagram_svg(&svg, &len, &russian, &o, &err), DM_EINVAL);
    assert_non_null(strstr(err.message, "8x8"));
}

static void test_diagram__readers(void **state)
{
    (void)state;
    int f = 0, t = 0, sq = 0;
    dm_error err = {0};
    assert_int_equal(dm_diagram_parse_arrow(&f, &t, "32-28", &err), DM_OK);
    assert_true(f == 32 && t == 28);
    assert_int_equal(dm_diagram_parse_arrow(&f, &t, "28x17", &err), DM_OK);
    assert_true(f == 28 && t == 17);
    assert_int_equal(dm_diagram_parse_arrow(&f, &t, "28/17", &err), DM_EPARSE);
    assert_int_equal(err.column, 3);
    assert_int_equal(dm_diagram_parse_arrow(&f, &t, "28-170", &err), DM_EPARSE);
    assert_int_equal(err.column, 4);
    assert_non_null(strstr(err.message, "square 170 is not 1..50"));
    assert_int_equal(dm_diagram_parse_arrow(&f, &t, "-28", &err), DM_EPARSE);
    assert_int_equal(err.column, 1);
    assert_int_equal(dm_diagram_parse_square(&sq, "50", &err), DM_OK);
    assert_int_equal(sq, 50);
    assert_int_equal(dm_diagram_parse_square(&sq, "5 ", &err), DM_EPARSE);
    assert_int_equal(err.column, 2);
    assert_int_equal(dm_diagram_parse_square(&sq, "", &err), DM_EPARSE);
    assert_non_null(strstr(err.message, "found the end"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diagram__geometry),
        cmocka_unit_test(test_diagram__svg),
        cmocka_unit_test(test_diagram__readers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
