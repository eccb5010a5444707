"""The records target (kept under its old name): see fuzz/fuzz.py and fuzz/targets.py.

python fuzz/fuzz_records.py fuzz/corpus/records -max_total_time=300
"""

import os
import sys

if __name__ == "__main__":
    sys.argv.insert(1, "records")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import fuzz

    fuzz.main()
