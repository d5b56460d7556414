/* The table test_global_member_tables.c reads, defined in another file
 * (global_member_tables.h), compiled plainly. */
#include "global_member_tables.h"

const struct gm_log_data gm_log_data = {
    .ln2 = 0x1.62e42fefa39efp-1,
    .poly = {-0.5, 0x1.5555555555555p-2, -0.25, 0.2},
    .tab =
        {
            {0x1.f07c1f07c1f08p-1, 0x1.f829b0e783300p-6},
            {0x1.d41d41d41d41dp-1, 0x1.6f0d28ae56b4cp-4},
            {0x1.bacf914c1bad0p-1, 0x1.29552f81ff523p-3},
            {0x1.a41a41a41a41ap-1, 0x1.9525a9cf456b4p-3},
            {0x1.8f9c18f9c18fap-1, 0x1.fb9186d5e3e2bp-3},
            {0x1.7d05f417d05f4p-1, 0x1.2e8e2bae11d31p-2},
            {0x1.6c16c16c16c17p-1, 0x1.5d1bdbf5809cap-2},
            {0x1.5c9882b931057p-1, 0x1.89a3386c1425bp-2},
            {0x1.4e5e0a72f0539p-1, 0x1.b44f77bcc8f63p-2},
            {0x1.4141414141414p-1, 0x1.dd46a04c1c4a1p-2},
            {0x1.3521cfb2b78c1p-1, 0x1.02552a5a5d0ffp-1},
            {0x1.29e4129e4129ep-1, 0x1.154c3d2f4d5eap-1},
            {0x1.1f7047dc11f70p-1, 0x1.2795e1289b11bp-1},
            {0x1.15b1e5f75270dp-1, 0x1.393e0d3562a1ap-1},
            {0x1.0c9714fbcda3bp-1, 0x1.4a4f85db03ebbp-1},
            {0x1.0410410410410p-1, 0x1.5ad404c359f2dp-1},
        },
    .mix = {{0.0f, -7, 1.0},
            {0.25f, -4, 0.5},
            {0.5f, -1, 0x1.5555555555555p-2},
            {0.75f, 2, 0.25},
            {1.0f, 5, 0.2},
            {1.25f, 8, 0x1.5555555555555p-3},
            {1.5f, 11, 0x1.2492492492492p-3},
            {1.75f, 14, 0.125}},
    .nest = {3, {{1.0, 0.0}, {2.0, -1.0}, {3.0, -2.0}}},
    .named = {{1.0, 1.0}, {2.0, 0.5}, {3.0, 0x1.5555555555555p-2}, {4.0, 0.25}},
};
