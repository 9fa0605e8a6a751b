import os
from typing import List


class Service:
    def __init__(self, items: List[str]):
        self.items = items

    def run(self):
        return process(self.items)


def process(items):
    return [normalize(i) for i in items]


def normalize(item):
    return os.path.basename(item)
