<?php

declare(strict_types=1);

namespace Rapier\Tests\Metrics;

use PHPUnit\Framework\TestCase;
use Rapier\Metrics\TextFormat;

final class TextFormatTest extends TestCase
{
    public function testWritesHelpTypeAndSamples(): void
    {
        $text = (new TextFormat())
            ->family('rapier_x_total', 'counter', "A help\\text\nover two lines")
            ->sample('rapier_x_total', ['a' => 'b', 'c' => 'd'], 3)
            ->sample('rapier_x_total', [], 0.25)
            ->text();

        $this->assertSame("# HELP rapier_x_total A help\\\\text\\nover two lines\n# TYPE rapier_x_total counter\n"
            . "rapier_x_total{a=\"b\",c=\"d\"} 3\nrapier_x_total 0.25\n", $text);
    }

    public function testEscapesLabelValues(): void
    {
        $text = (new TextFormat())->sample('m', ['route' => "/a\"b\\c\nd"], 1)->text();

        $this->assertSame("m{route=\"/a\\\"b\\\\c\\nd\"} 1\n", $text);
        $this->assertSame("/a\"b\\c\nd", PrometheusText::parse($text)->samples[0]['labels']['route'], 'reads back as written');
    }

    public function testWritesSpecialFloats(): void
    {
        $text = (new TextFormat())->sample('a', [], INF)->sample('b', [], -INF)->sample('c', [], NAN)->sample('d', [], 10.0)->text();

        $this->assertSame("a +Inf\nb -Inf\nc NaN\nd 10\n", $text);
    }

    public function testHistogramIsCumulativeWithInfSumAndCount(): void
    {
        $text = (new TextFormat())->histogram('h', ['route' => '/'], [0.1, 1.0], [2, 0, 3], 7.5)->text();

        $this->assertSame(
            "h_bucket{route=\"/\",le=\"0.1\"} 2\n"
            . "h_bucket{route=\"/\",le=\"1\"} 2\n"
            . "h_bucket{route=\"/\",le=\"+Inf\"} 5\n"
            . "h_sum{route=\"/\"} 7.5\n"
            . "h_count{route=\"/\"} 5\n",
            $text,
        );
    }
}
