package demo.service

import kotlin.math.max
import demo.store.Repo

object Registry {
    fun register(name: String) {
        println(name)
    }
}

class Service(private val repo: Repo) {
    fun process(x: Int): Int {
        val y = helper(x)
        repo.save(y)
        return max(x, y)
    }

    companion object {
        fun create(): Service = Service(Repo())
    }
}

fun helper(v: Int): Int = v * 2

fun main() {
    Registry.register("demo")
    Service.create().process(helper(1))
}
